/*
 * ReadsHostState — a fixture for process isolation's fidelity tests: it reads, during a call, what
 * a subscriber can read of the host, and answers an explicit NO where "no opinion" would be easy to
 * confuse with it. Nothing about it is broken; an isolated copy must behave as an in-process one.
 *
 *   didBecomeActive       logs "state <n> invocation <kind> <detail>" from adh.host.state/1
 *                         (application_state, launch_invocation; "-" for no detail)
 *   continueUserActivity  answers ADH_FALSE (an explicit no), never calls the restoration handler
 *   performFetch          completes at once (newData) and keeps the completion
 *   willResignActive      calls the kept completion again (newData): a second call, after delivery
 *   destroy               the same, when willResignActive did not
 */
#include <stdio.h>
#include <string.h>

#include "adh_fixture.h"

static void did_become_active(const adh_subscriber *self) {
    const adh_host *host = adh_fixture_host(self);
    if (!ADH_STRUCT_HAS(host, adh_host, get_extension) || host->get_extension == NULL) return;
    const adh_host_state *state = host->get_extension(host, ADH_EXT_HOST_STATE);
    if (state == NULL || state->application_state == NULL || state->launch_invocation == NULL) return;
    adh_string detail = {NULL, 0};
    adh_invocation_kind kind = state->launch_invocation(host, &detail);
    char line[512];
    int length = snprintf(line, sizeof line, "state %d invocation %d %.*s", (int)state->application_state(host), (int)kind,
                          detail.data == NULL ? 1 : (int)(detail.length > 400 ? 400 : detail.length),
                          detail.data == NULL ? "-" : detail.data);
    if (length < 0) return;
    host->log(host, ADH_LOG_INFO, (adh_string){line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1});
}

static adh_tristate continue_user_activity(const adh_subscriber *self, const adh_user_activity *activity,
                                           adh_json_completion restoration) {
    (void)self;
    (void)activity;
    (void)restoration;
    return ADH_FALSE;
}

/* The last performFetch's completion, called again by willResignActive. */
static adh_fetch_completion kept;
static int holding = 0;

static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    kept = completion;
    holding = 1;
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return ADH_RESPONDS;
}

static void will_resign_active(const adh_subscriber *self) {
    (void)self;
    if (!holding) return;
    holding = 0;
    kept.call(kept.context, ADH_FETCH_NEW_DATA);
}

static void destroy(const adh_subscriber *self) {
    will_resign_active(self);
    adh_fixture_destroy(self);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ReadsHostState", host);
    if (subscriber == NULL) return NULL;
    subscriber->did_become_active = did_become_active;
    subscriber->continue_user_activity = continue_user_activity;
    subscriber->perform_fetch = perform_fetch;
    subscriber->will_resign_active = will_resign_active;
    subscriber->destroy = destroy;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.reads-host-state", "ReadsHostState", create);
ADH_FIXTURE_ENTRY(descriptor)
