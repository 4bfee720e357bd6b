# lit configuration for tlc. Works with any lit (no lit.llvm dependency).
#
# Two sets of tests: the default set (GPU-free and fast, what
# `bash scripts/test.sh` runs) and the slow set, `REQUIRES: slow` (nvcc
# compiles of every example and harness, valgrind). lit --param slow=...:
#   (unset)  the default set; slow tests are reported as unsupported
#   only     only the slow set (ctest's lit-slow entry, scripts/test.sh with
#            TLC_TEST_SLOW=1, the check-slow target)
#   all      both
#
# A test file with a line "# FOR-EACH: at least N GLOB..." is a template: one
# test per file the globs find, %{each} its path (lit_foreach.py); fewer than
# N files fails, so no such test passes on an empty glob.
import os
import sys
import shutil
import subprocess

# The format lives in a module (not here) so that lit's worker processes can
# unpickle it; importing it writes no __pycache__ into the source tree.
sys.path.insert(0, os.path.dirname(__file__))
_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
from lit_foreach import TlcShTest  # noqa: E402
sys.dont_write_bytecode = _bytecode

config.name = "tlc"
config.test_format = TlcShTest(execute_external=False)
config.suffixes = [".tl", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit_foreach.py", "unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tlc_obj_root, "test")
config.environment["PATH"] = os.path.pathsep.join(
    [config.tlc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["NO_COLOR"] = "1"
config.substitutions.append(("%tlc", os.path.join(config.tlc_tools_dir, "tlc")))
config.substitutions.append(("%examples", os.path.join(config.tlc_src_root, "examples")))
config.substitutions.append(("%srcroot", config.tlc_src_root))
config.substitutions.append(("%python", sys.executable))
# The objects of the tlccore library (lib/<Folder>/*.c.o), for test/Docs/layers.test.
config.substitutions.append(("%libobjs", os.path.join(config.tlc_obj_root, "CMakeFiles", "tlccore.dir")))
# This lit itself, for test/Lit (a nested lit on a tiny suite).
config.substitutions.append(("%lit", os.path.abspath(sys.argv[0])))

# The slow set (see the top of this file).
_slow = lit_config.params.get("slow", "")
if _slow not in ("", "only", "all"):
    lit_config.fatal("--param slow=%s: want only or all" % _slow)
if _slow:
    config.available_features.add("slow")
if _slow == "only":
    config.limit_to_features.add("slow")

# nvcc: the emitted CUDA must compile (CI has nvcc but no GPU).
nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))

# A sanitizer build (TLC_SANITIZE=ON): valgrind cannot run ASan binaries.
if getattr(config, "tlc_sanitize", "OFF") in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asan")

if shutil.which("valgrind"):
    config.available_features.add("valgrind")
    config.substitutions.append(("%valgrind", shutil.which("valgrind")))

# cuda-gpu: a GPU is visible, so harnesses can run.
def _has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
        return out.returncode == 0 and "GPU" in out.stdout
    except Exception:
        return False

if nvcc and _has_gpu():
    config.available_features.add("cuda-gpu")
