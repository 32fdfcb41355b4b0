// The host engine: manifest, loader, dispatcher, reconcilers.
