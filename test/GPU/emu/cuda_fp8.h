// Stand-in for the CUDA header: the CPU emulator (see cuda_emu.h).
#include "cuda_emu.h"
