// Placeholder: the conformance kit's tests land here.
