// subscriber-bench: placeholder until the benchmark lands (SPEC §8).
