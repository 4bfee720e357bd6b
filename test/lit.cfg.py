# lit configuration for tlc. Works with any lit (no lit.llvm dependency).
import os
import sys
import shutil
import subprocess

import lit.formats

config.name = "tlc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tl", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tlc_obj_root, "test")
config.environment["PATH"] = os.path.pathsep.join(
    [config.tlc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["NO_COLOR"] = "1"
config.substitutions.append(("%tlc", os.path.join(config.tlc_tools_dir, "tlc")))
config.substitutions.append(("%examples", os.path.join(config.tlc_src_root, "examples")))
config.substitutions.append(("%srcroot", config.tlc_src_root))
config.substitutions.append(("%python", sys.executable))

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
