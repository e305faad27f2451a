/* test_cli.c - the numeric option parsers every subcommand shares (host/cli.c).
 * (Rejections print their message on stderr, as they do for a user.) */
#include "test.h"
#include "../host/cli.h"

TEST(cli_parse_int_accepts_whole_numbers) {
    long long x = -1;
    CHECK(cli_parse_int("test", "--n", "0", 0, 10, &x) == 0 && x == 0);
    CHECK(cli_parse_int("test", "--n", "10", 0, 10, &x) == 0 && x == 10);   /* bounds are inclusive */
    CHECK(cli_parse_int("test", "--n", "-7", -10, 10, &x) == 0 && x == -7);
    CHECK(cli_parse_int("test", "--n", "2e6", 0, 10000000, &x) == 0 && x == 2000000);
    CHECK(cli_parse_int("test", "--n", "9007199254740992", 0, 1LL << 62, &x) == 0 && x == 9007199254740992LL);
    CHECK(cli_parse_int("test", "--n", "9223372036854775807", 0, 9223372036854775807LL, &x) == 0 &&
          x == 9223372036854775807LL);
}

TEST(cli_parse_int_refuses_the_rest) {
    static const char *const BAD[] = {"", "x", "5x", "2.5", "1e-3", "nan", "inf", "1e300",
                                      "99999999999999999999", "1.5e20", "11", "-1"};
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        long long x = 123;
        CHECK(cli_parse_int("test", "--n", BAD[i], 0, 10, &x) == EXIT_USAGE);
        CHECK(x == 123);  /* left alone */
    }
    long long x = 0;
    CHECK(cli_parse_int("test", "--n", NULL, 0, 10, &x) == EXIT_USAGE);  /* missing value */
}

TEST(cli_parse_real_ranges) {
    double x = -1;
    CHECK(cli_parse_real("test", "--r", "0.25", 0, 1, &x) == 0 && x == 0.25);
    CHECK(cli_parse_real("test", "--r", "1", 0, 1, &x) == 0 && x == 1);
    CHECK(cli_parse_real("test", "--r", "-2.5", -1e6, 1e6, &x) == 0 && x == -2.5);
    static const char *const BAD[] = {"", "nan", "inf", "1.5", "-0.1", "0.5x", "1e999"};
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        x = 7;
        CHECK(cli_parse_real("test", "--r", BAD[i], 0, 1, &x) == EXIT_USAGE && x == 7);
    }
}
