"""Progress on a terminal (stderr only when it is one): done/total, MB/s of
replay read, and the time left at that rate."""
import sys
import time


class Progress:
    def __init__(self, total, total_bytes, stream=sys.stderr):
        self.total, self.total_bytes = total, total_bytes
        self.done = self.bytes = 0
        self.start = time.monotonic()
        self.stream = stream
        self.live = hasattr(stream, "isatty") and stream.isatty()

    def step(self, nbytes):
        self.done += 1
        self.bytes += nbytes
        if not self.live:
            return
        elapsed = max(1e-9, time.monotonic() - self.start)
        rate = self.bytes / elapsed
        left = (self.total_bytes - self.bytes) / rate if rate > 0 else 0
        self.stream.write("\r%d/%d replays  %.1f MB/s  ETA %d:%02d " % (
            self.done, self.total, rate / 1e6, left // 60, left % 60))
        self.stream.flush()

    def finish(self):
        if self.live:
            self.stream.write("\n")
            self.stream.flush()
