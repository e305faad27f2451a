/* test_keyset.c - the composers' set of canonical SFENs (host/keyset.c): order
 * kept, repeats ignored, every key found at its index across the index's growth. */
#include <stdio.h>
#include <string.h>
#include "test.h"
#include "../host/keyset.h"

TEST(keyset_order_repeats_and_growth) {
    Keys k = {0};
    char key[64];
    CHECK(!keys_has(&k, "x") && keys_find(&k, "x") == -1);  /* empty, no index yet */
    for (int i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "4k4/9/4P4/9/9/9/9/9/9 b G%d 1", i % 5000);  /* each key four times */
        keys_add(&k, key);
    }
    CHECK_EQ_U64(k.n, 5000);
    CHECK(k.nslot >= 2 * (size_t)k.n);  /* at most half full */
    int bad = 0;
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "4k4/9/4P4/9/9/9/9/9/9 b G%d 1", i);
        bad += keys_find(&k, key) != i || !keys_has(&k, key) || strcmp(k.s[i], key);
    }
    CHECK_EQ_U64(bad, 0);
    CHECK(!keys_has(&k, "4k4/9/4P4/9/9/9/9/9/9 b G5000 1") && !keys_has(&k, ""));
    keys_free(&k);
}
