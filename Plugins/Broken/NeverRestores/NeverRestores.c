/*
 * NeverRestores — not broken: the faithful port of an Expo subscriber whose continueUserActivity
 * returns true and never calls the restoration handler. UIKit's handler is optional, and so is the
 * host's: nothing is late or reported, and an event script ends promptly with exit 0. The host's
 * tests (CLIOptionalRestorationTests) and the kit's (events.completion passes) prove it.
 */
#include "adh_fixture.h"

/* Handles every activity and has nothing to restore: the handler is never called. */
static adh_tristate continue_user_activity(const adh_subscriber *self, const adh_user_activity *activity,
                                           adh_json_completion restoration) {
    (void)self;
    (void)activity;
    (void)restoration;
    return ADH_TRUE;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "NeverRestores", host);
    if (subscriber != NULL) subscriber->continue_user_activity = continue_user_activity;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.never-restores", "NeverRestores", create);
ADH_FIXTURE_ENTRY(descriptor)
