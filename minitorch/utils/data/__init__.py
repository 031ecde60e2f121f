"""torch.utils.data: datasets, samplers, DataLoader and the collate functions (see each module)."""

from minitorch.utils.data._utils.collate import default_collate, default_convert
from minitorch.utils.data.dataloader import DataLoader, get_worker_info
from minitorch.utils.data.dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset,
                                          Subset, TensorDataset, random_split)
from minitorch.utils.data.sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,
                                          SubsetRandomSampler, WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler", "TensorDataset",
           "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info", "random_split"]


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
