# A tiny lit suite for for-each.test: FOR-EACH templates (test/lit_foreach.py)
# over items/, run by a nested lit.
import os
import sys

sys.path.insert(0, lit_config.params["tlc_test_dir"])
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lit_foreach import TlcShTest  # noqa: E402

config.name = "foreach"
config.test_format = TlcShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["items"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params["exec_root"]
