"""ExponentialFamily (torch.distributions.exp_family): the base of the distributions written in natural
parameters; its entropy and the Bregman-divergence KL between two members of one family come from the
log normalizer's gradient."""

import minitorch
from minitorch.distributions.distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """A distribution p(x) = exp(<t(x), theta> - F(theta) + k(x)); subclasses give theta
    (_natural_params), F (_log_normalizer) and E[k(x)] (_mean_carrier_measure)."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """The entropy through the Bregman divergence of the log normalizer."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = minitorch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np, g in zip(nparams, gradients):
            result -= (np * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
