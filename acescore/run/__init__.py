"""A run: the pipeline, document shards and worker processes."""
