"""A test double for the few parts of torch the tlc package touches.

CI has no GPU, and Debian's python3-torch pulls in ~180 packages (OpenCV,
Qt, GDAL through libtorch-dev), so the package's tests put this folder first
on PYTHONPATH instead. Tensors here hold no data: they have a shape, a dtype,
a device, strides and a made-up data_ptr(), which is all the argument checks
read. Only the tests under test/Python/ use it; the GPU script uses real torch.
"""


class dtype:
    def __init__(self, name, size):
        self.name, self.itemsize = name, size

    def __repr__(self):
        return f"torch.{self.name}"


float16 = dtype("float16", 2)
bfloat16 = dtype("bfloat16", 2)
float32 = dtype("float32", 4)
float64 = dtype("float64", 8)
int8 = dtype("int8", 1)
uint8 = dtype("uint8", 1)
int16 = dtype("int16", 2)
int32 = dtype("int32", 4)
int64 = dtype("int64", 8)
bool = dtype("bool", 1)  # noqa: A001 (torch's own name)


class device:
    def __init__(self, type, index=None):  # noqa: A002 (torch's own names)
        if isinstance(type, device):
            type, index = type.type, type.index
        elif ":" in type:
            type, index = type.split(":")[0], int(type.split(":")[1])
        self.type = type
        self.index = 0 if type == "cuda" and index is None else index

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __repr__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


_next_address = [1 << 20]


class Tensor:
    def __init__(self, shape, dtype=float32, device_=None, strides=None, address=None):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.device = device(device_ or "cpu")
        self._strides = strides or _dense_strides(self.shape)
        if address is None:  # every new tensor on its own 256-byte boundary, as CUDA allocates
            address = _next_address[0]
            _next_address[0] += (max(1, _numel(self.shape)) * dtype.itemsize + 511) // 256 * 256
        self._address = address

    def stride(self):
        return self._strides

    def is_contiguous(self):
        return self._strides == _dense_strides(self.shape)

    def data_ptr(self):
        return self._address

    def t(self):
        return Tensor(self.shape[::-1], self.dtype, self.device, self._strides[::-1], self._address)

    def offset(self, elements):
        """A view that starts `elements` further on (as x.view(-1)[k:] would)."""
        return Tensor(self.shape, self.dtype, self.device, self._strides,
                      self._address + elements * self.dtype.itemsize)


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _dense_strides(shape):
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


def empty(shape, dtype=float32, device=None):  # noqa: A002
    return Tensor(shape, dtype, device)


def empty_strided(shape, strides, dtype=float32, device=None):  # noqa: A002
    return Tensor(shape, dtype, device, tuple(strides))


class _Stream:
    cuda_stream = 0x5743  # recognisable in the launch log


class cuda:
    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def current_stream(device=None):
        return _Stream()
