from minitorch.utils import dlpack as dlpack
from minitorch.utils import hooks as hooks
from minitorch.utils import data as data
from minitorch.utils import checkpoint as checkpoint
