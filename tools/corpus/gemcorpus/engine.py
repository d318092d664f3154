"""The distributed engine under gem-corpus: Dask distributed, an embedded
local cluster or an existing scheduler. Tasks are submitted all at once and
their results handled on this process as they complete; Dask reschedules a
task whose worker dies (up to its allowed failures), and the tasks are
idempotent.

The embedded cluster runs its worker in this process, with one thread per
core (--workers N: N threads): a task is a gem-index process, whose own
threads do the work, so a thread waiting on it is all a worker needs to be.
Worker processes (one interpreter, nanny and heartbeat each) cost 1.4 s of
CPU more a run on this 2-core machine for nothing the tasks use; they are
what --scheduler's clusters are made of."""
import contextlib
import logging
import os

from . import tasks


@contextlib.contextmanager
def cluster(scheduler=None, workers=None):
    """A connected distributed.Client (closed, with its cluster, on exit)."""
    import cloudpickle
    import distributed
    # Workers import nothing of gem: the task functions travel by value.
    cloudpickle.register_pickle_by_value(tasks)
    if scheduler:
        client = distributed.Client(scheduler, timeout="30s")
        try:
            yield client
        finally:
            client.close()
        return
    n = workers or os.cpu_count() or 1
    with distributed.LocalCluster(n_workers=1, threads_per_worker=n, processes=False,
                                  dashboard_address=None,
                                  silence_logs=logging.ERROR) as local:
        with distributed.Client(local) as client:
            yield client


def run(client, fn, jobs, on_result):
    """fn(job) for every job on the cluster; on_result(job, result) here as
    each completes. A task that keeps killing its workers ends as a result
    {'status': 'failed', 'error': ...}. Ctrl-C cancels what is left."""
    import distributed
    futures = {client.submit(fn, job, pure=False): job for job in jobs}
    try:
        for future in distributed.as_completed(futures):
            job = futures[future]
            try:
                result = future.result()
            except Exception as e:  # KilledWorker and the like
                result = {"status": "failed", "exit_code": None,
                          "error": "the task failed on the cluster: %s: %s" % (
                              type(e).__name__, e)}
            on_result(job, result)
    except BaseException:
        client.cancel(list(futures))
        raise
