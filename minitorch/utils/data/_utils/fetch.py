"""Fetching one batch (or one sample) from a dataset: torch.utils.data._utils.fetch.

The DataLoader's iterator uses a fetcher in the calling process (num_workers=0) and each worker process uses
its own. A map-style fetcher indexes the dataset (through __getitems__ when the dataset has it); an iterable
fetcher draws from its own iterator of the dataset and raises StopIteration when that runs out (or, with
drop_last, when only a short batch is left)."""

__all__ = []


class _MapDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, possibly_batched_index):
        if not self.auto_collation:
            return self.collate_fn(self.dataset[possibly_batched_index])
        getitems = getattr(self.dataset, "__getitems__", None)
        if getitems:
            return self.collate_fn(getitems(possibly_batched_index))
        return self.collate_fn([self.dataset[i] for i in possibly_batched_index])


class _IterableDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.dataset_iter))
        data = []
        for _ in possibly_batched_index:
            try:
                data.append(next(self.dataset_iter))
            except StopIteration:
                self.ended = True
                break
        if len(data) == 0 or (self.drop_last and len(data) < len(possibly_batched_index)):
            raise StopIteration
        return self.collate_fn(data)


def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
    """The fetcher for a dataset of kind "map" or "iterable" (the DataLoader's _dataset_kind)."""
    fetcher = _IterableDatasetFetcher if kind == "iterable" else _MapDatasetFetcher
    return fetcher(dataset, auto_collation, collate_fn, drop_last)
