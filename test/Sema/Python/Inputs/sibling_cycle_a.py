# Imported by test/Sema/Python/sibling-import.py: a cycle of imports.
from sibling_cycle_b import B

A = B + 1
