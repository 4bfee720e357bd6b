# Imported by test/Sema/Python/sibling-import.py: an error in this module's
# code is reported in this file.
import tilelang.language as T


def broken(x):
    return x + undefined_name
