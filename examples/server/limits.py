# SPDX-License-Identifier: MIT
"""Limits per client address (docs/server.md, "Limits and defaults").

``AddressRate`` is a token bucket per address: ``rate`` requests a
second, ``burst`` at once. It remembers at most ``max_addresses``
addresses (the least recently seen forgotten first, which only gives a
forgotten address a full bucket again), so that a flood of addresses
cannot grow the server's memory.
"""

import collections
import time
from typing import Optional, Tuple


class AddressRate:
    def __init__(self, rate: float, burst: float, max_addresses: int = 65536) -> None:
        self.rate, self.burst = rate, burst
        self.max_addresses = max_addresses
        self._buckets: "collections.OrderedDict[str, Tuple[float, float]]" = \
            collections.OrderedDict()

    def take(self, address: str, now: Optional[float] = None) -> float:
        """0 when ``address`` may go on (a token taken), else the seconds
        until it may."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate if self.rate > 0 else float("inf")
        self._buckets[address] = (tokens, now)
        while len(self._buckets) > self.max_addresses:
            self._buckets.popitem(last=False)
        return wait
