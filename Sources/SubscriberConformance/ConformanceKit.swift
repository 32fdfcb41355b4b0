// Placeholder: the conformance kit (SPEC §7) lands here.
