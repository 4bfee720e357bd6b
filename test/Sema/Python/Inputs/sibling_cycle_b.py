# Imported by sibling_cycle_a.py, which it imports back.
from sibling_cycle_a import A

B = A + 1
