// Placeholder: the benchmark's subscriber types land here.
