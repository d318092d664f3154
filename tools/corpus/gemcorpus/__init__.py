"""gem-corpus: many replays indexed and queried as one, on Dask distributed."""
