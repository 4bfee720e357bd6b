# A module that test/Sema/Python/sibling-import.py imports from its own
# directory (the test copies both into one): constants, a plain helper used
# in a kernel, a @T.macro, a function that reads this module's own names,
# host code (torch) and a __main__ block, as TileLang's example modules have.
import torch
import tilelang
import tilelang.language as T

LOG2_E = 1.44269504
_BLOCKS = (16, 32, 64)
_SCALE = 3


def check_block(b):
    assert b in _BLOCKS, "block size not supported"


def scaled(x):
    return x * _SCALE  # _SCALE of this module, whatever the importer defines


def tile_allowed(i, j, blk):
    return T.if_then_else(i // blk >= j // blk, 1, 0)


@T.macro
def add_one(buf, i):
    buf[i] = buf[i] + 1


def host_only():
    return torch.zeros(4)


if __name__ == "__main__":
    host_only()
