"""minitorch.optim: torch's optimizers (SGD, Adam, AdamW, Adamax, NAdam, RAdam, RMSprop, Adagrad, Adadelta,
Rprop, ASGD, LBFGS) and learning-rate schedulers, with torch's update arithmetic step by step, so
parameters after N steps are torch's."""

from minitorch.optim import lr_scheduler, swa_utils  # noqa: F401
from minitorch.optim.adadelta import Adadelta
from minitorch.optim.adagrad import Adagrad
from minitorch.optim.adam import Adam
from minitorch.optim.adamax import Adamax
from minitorch.optim.adamw import AdamW
from minitorch.optim.asgd import ASGD
from minitorch.optim.lbfgs import LBFGS
from minitorch.optim.nadam import NAdam
from minitorch.optim.optimizer import Optimizer
from minitorch.optim.radam import RAdam
from minitorch.optim.rmsprop import RMSprop
from minitorch.optim.rprop import Rprop
from minitorch.optim.sgd import SGD

__all__ = ["ASGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS", "NAdam", "Optimizer", "RAdam",
           "RMSprop", "Rprop", "SGD", "lr_scheduler", "swa_utils"]


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
