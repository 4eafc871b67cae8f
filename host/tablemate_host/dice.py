"""The recorded games' dice: one seeded generator, so that a seed plays the same game on every
machine and every Python (the budgets' tests and docs/performance.md quote those games)."""


class Dice:
    """``Dice(seed)(n)``: the next number in range(n)."""

    def __init__(self, seed):
        self.seed = seed

    def __call__(self, n):
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.seed >> 8) % n
