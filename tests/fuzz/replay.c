/* replay.c - runs fuzz_input's target over files (a corpus, or inputs the fuzzer
 * saved), without libFuzzer: the tests build it with the sanitizers. */
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t n);

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) { fprintf(stderr, "replay: cannot read %s\n", argv[i]); return 2; }
        static unsigned char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("fuzz replay: %d passed, 0 failed\n", argc - 1);
    return 0;
}
