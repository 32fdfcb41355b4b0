/*
 * ReloadAnswerB — ReloadAnswerA built with a different answer: same plugin and subscriber names
 * ("ReloadAnswer"), openURL answered ADH_FALSE. The reload test copies it over A's file.
 */
#define RELOAD_ANSWER ADH_FALSE
#include "../ReloadAnswerA/ReloadAnswerA.c"
