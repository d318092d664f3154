"""gem-view: a local web viewer over a gem index or a gem-corpus folder."""
