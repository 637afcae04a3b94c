/* The chunked split of the Reduce_scatter mock-ups (src/algorithms/chunks.h): the counts sum to
 * n in rank order, and the summaries (regular, zeros, max) agree with the counts themselves, the
 * zeros one deciding whether an inner Reduce_scatter meets a known defect (zero_counts). */
#include "algorithms/chunks.h"
#include "check.h"
#include <stdlib.h>

int main(void) {
    static const int64_t ns[] = {0, 1, 7, 255, 256, 257, 1000, 4096, 16384, 65536, 100000};
    static const int ps[] = {1, 2, 3, 4, 7, 16, 64, 256};
    static const int64_t cs[] = {1, 2, 256};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof ps / sizeof ps[0]; b++)
            for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
                int64_t n = ns[a], c = cs[k];
                int p = ps[b], *counts = malloc(sizeof(int) * (size_t)p),
                    *displs = malloc(sizeof(int) * (size_t)p);
                mg_chunk_counts(n, p, c, counts, displs);
                int64_t sum = 0, max = 0;
                int zeros = 0, equal = 1, order = 1;
                for (int i = 0; i < p; i++) {
                    order &= displs[i] == sum;
                    sum += counts[i];
                    zeros |= counts[i] == 0;
                    equal &= counts[i] == counts[0];
                    if (counts[i] > max) max = counts[i];
                }
                CHECK(sum == n && order, "n=%lld p=%d c=%lld: counts sum to %lld", (long long)n, p,
                      (long long)c, (long long)sum);
                CHECK(mg_chunk_zeros(n, p, c) == zeros, "n=%lld p=%d c=%lld: zeros %d, said %d",
                      (long long)n, p, (long long)c, zeros, mg_chunk_zeros(n, p, c));
                CHECK(mg_chunk_regular(n, p, c) == equal, "n=%lld p=%d c=%lld: equal %d",
                      (long long)n, p, (long long)c, equal);
                CHECK(mg_chunk_max(n, p, c) == max, "n=%lld p=%d c=%lld: max %lld", (long long)n, p,
                      (long long)c, (long long)max);
                free(counts);
                free(displs);
            }
    return DONE();
}
