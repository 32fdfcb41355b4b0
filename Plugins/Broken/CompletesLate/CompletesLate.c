/*
 * CompletesLate — a deliberately broken plugin for the conformance kit: fails the check "every
 * completion is called exactly once, within the deadline", with completions that come after it.
 *
 * didReceiveRemoteNotification keeps its completion and returns ADH_RESPONDS; the completion is called
 * (newData) at the start of the next didReceiveRemoteNotification or performFetch, which the kit sends
 * only after the deadline of the one before has passed: late, whatever the deadline and however busy
 * the machine, yet called. performFetch completes at once. The kit must report each late call once,
 * as called after the deadline, never also as never called.
 */
#include "adh_fixture.h"

/* The completion kept from the last didReceiveRemoteNotification, until the next event calls it. */
static adh_fetch_completion kept;
static int holding = 0;

static void call_kept(void) {
    if (!holding) return;
    holding = 0;
    kept.call(kept.context, ADH_FETCH_NEW_DATA);
}

/* The defect: the completion is called, but only when the next event comes. */
static adh_response did_receive_remote_notification(const adh_subscriber *self, adh_string user_info_json,
                                                    adh_fetch_completion completion) {
    (void)self;
    (void)user_info_json;
    call_kept();
    kept = completion;
    holding = 1;
    return ADH_RESPONDS;
}

static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    call_kept();
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return ADH_RESPONDS;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "CompletesLate", host);
    if (subscriber != NULL) {
        subscriber->did_receive_remote_notification = did_receive_remote_notification;
        subscriber->perform_fetch = perform_fetch;
    }
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.completes-late", "CompletesLate", create);
ADH_FIXTURE_ENTRY(descriptor)
