// The host: manifest, loader, dispatcher. The delivery engine it runs events through
// (SubscriberDelivery) is part of its API — the host clock, an outcome's in-flight form — so
// importing SubscriberHost imports it too.
@_exported import SubscriberDelivery
