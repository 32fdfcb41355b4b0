/*
 * ReloadAnswerA — not a defect: a plugin for the live host's reload and crash tests (apphost send
 * --reload). Its one subscriber, "ReloadAnswer", answers openURL with RELOAD_ANSWER (ADH_TRUE here;
 * ReloadAnswerB builds this same file with ADH_FALSE), so a test that copies B over A's file and
 * reloads sees the new answer. didReceiveMemoryWarning writes through NULL (SIGSEGV): a crash while
 * the host is up.
 */
#include <signal.h>

#include "adh_fixture.h"

#ifndef RELOAD_ANSWER
#define RELOAD_ANSWER ADH_TRUE
#endif

static adh_tristate open_url(const adh_subscriber *self, const adh_open_url *request) {
    (void)self;
    (void)request;
    return RELOAD_ANSWER;
}

static void did_receive_memory_warning(const adh_subscriber *self) {
    (void)self;
    volatile int *nowhere = NULL;
    *nowhere = 1;
    raise(SIGSEGV);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ReloadAnswer", host);
    if (subscriber != NULL) {
        subscriber->open_url = open_url;
        subscriber->did_receive_memory_warning = did_receive_memory_warning;
    }
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.reload-answer", "ReloadAnswer", create);
ADH_FIXTURE_ENTRY(descriptor)
