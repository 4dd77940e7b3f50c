/* A UniClue client (seeds/001) in C: it speaks the judges' C/Q/A protocol on
 * stdin/stdout and plays unchanged against the judges' server or against
 * `clue uniclue serve CONFIG TRANSCRIPT -- ./client`.
 *
 * Strategy: keep a notebook of cards known to be outside the envelope; query
 * the first unknown suspect and weapon in the current room (a category whose
 * envelope card is already known is probed with a card of its own hand, which
 * no other player can show); when nobody
 * has an alibi, every unknown card named is in the envelope. Accuse once each
 * category has exactly one candidate left.
 *
 * Build: cc -O2 -o client client.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int COUNT[3] = {6, 6, 9};
static int known[3][10];    /* known[c][n]: card n of category c is not in the envelope */
static int mine[3][10];     /* mine[c][n]: card n of category c is in the client's hand */

static int category(char c) { return c == 'S' ? 0 : c == 'W' ? 1 : c == 'R' ? 2 : -1; }

static int candidates(int c, int *last) {
    int left = 0;
    for (int n = 1; n <= COUNT[c]; n++)
        if (!known[c][n]) { left++; *last = n; }
    return left;
}

static void mark(const char *code) {
    int c = category(code[0]);
    int n = atoi(code + 1);
    if (c >= 0 && n >= 1 && n <= COUNT[c]) known[c][n] = 1;
}

/* Solved: every other card of the category is known. */
static void solve(int c, int n) {
    for (int m = 1; m <= COUNT[c]; m++)
        if (m != n) known[c][m] = 1;
}

static int read_line(char *buf, int size) {
    if (!fgets(buf, size, stdin)) exit(0);
    buf[strcspn(buf, "\r\n")] = 0;
    return 1;
}

int main(void) {
    char line[256];
    printf("C\n"); fflush(stdout);
    read_line(line, sizeof line);
    int players = atoi(line);
    read_line(line, sizeof line);
    for (char *tok = strtok(line, " "); tok; tok = strtok(NULL, " ")) {
        mark(tok);
        int c = category(tok[0]), n = atoi(tok + 1);
        if (c >= 0 && n >= 1 && n <= COUNT[c]) mine[c][n] = 1;
    }
    read_line(line, sizeof line);
    int room = atoi(line);
    for (;;) {
        int env[3], left[3];
        for (int c = 0; c < 3; c++) left[c] = candidates(c, &env[c]);
        if (left[0] == 1 && left[1] == 1 && left[2] == 1) {
            printf("A%d%d%d\n", env[0], env[1], env[2]); fflush(stdout);
            read_line(line, sizeof line);   /* Victory or Disqualified */
            return strcmp(line, "Victory") == 0 ? 0 : 1;
        }
        int pick[2];
        for (int c = 0; c < 2; c++) {
            pick[c] = 0;
            for (int n = 1; n <= COUNT[c] && !pick[c]; n++)
                if (!known[c][n]) pick[c] = n;
            if (left[c] == 1) {
                /* Solved: probe with a card of our own (nobody else can show it),
                 * else with any card known to be outside the envelope. */
                pick[c] = env[c] == 1 ? 2 : 1;
                for (int n = COUNT[c]; n >= 1; n--)
                    if (mine[c][n]) pick[c] = n;
            }
        }
        int unknown_room = !known[2][room];
        printf("Q%d%d%d\n", pick[0], pick[1], room); fflush(stdout);
        int shown = 0;
        for (int p = 2; p <= players && !shown; p++) {
            read_line(line, sizeof line);
            if (strcmp(line + 1, "--") != 0) { mark(line + 1); shown = 1; }
        }
        if (!shown) {
            for (int c = 0; c < 2; c++) if (!known[c][pick[c]]) solve(c, pick[c]);
            if (unknown_room) solve(2, room);
        }
        read_line(line, sizeof line);
        room = atoi(line);
    }
}
