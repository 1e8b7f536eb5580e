/* Rollback netcode with world snapshots: two peers simulate the same game, each knowing its
 * own player's input at once and the other's only DELAY frames later. Each peer predicts the
 * missing input (the last one it heard), saves a snapshot before every frame, and when the
 * real input arrives and differs from its guess, restores the snapshot of that frame and
 * simulates again up to the present. A third run knows every input at once. Each run prints
 * a hash of every body's pose and velocity after the last frame: the three must agree (the
 * Rust test suite checks the lines). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collide2d.h"

#define FRAMES 240
#define DELAY 8          /* frames an input takes to reach the other peer */
#define HISTORY (DELAY + 1)
#define CRATES 40

typedef struct {
    c2d_WorldId world;
    c2d_BodyId players[2];
    c2d_BodyId crates[CRATES];
} Game;

/* Player p's input in frame f, -1, 0 or 1 (what a controller would give): changes every few
 * frames, so predictions are often wrong. */
static int input_of(int p, int f) {
    uint32_t h = (uint32_t)(f / 5) * 2654435761u ^ (uint32_t)(p + 1) * 40503u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return (int)(h % 3u) - 1;
}

static c2d_BodyId add_box(c2d_WorldId w, c2d_BodyKind kind, float x, float y, float hx, float hy) {
    c2d_Shape box;
    c2d_make_box(hx, hy, &box);
    c2d_Transform xf = {{x, y}, {1.0f, 0.0f}};
    c2d_BodyDef def;
    c2d_body_def(kind, &xf, &box, &def);
    c2d_BodyId id = {0, 0};
    if (c2d_world_add_body(w, &def, &id) != C2D_STATUS_OK) {
        fprintf(stderr, "add_body failed\n");
        exit(1);
    }
    return id;
}

static void game_init(Game *g) {
    if (c2d_world_create(NULL, &g->world) != C2D_STATUS_OK) exit(1);
    add_box(g->world, C2D_BODY_KIND_STATIC, 0.0f, -0.5f, 20.0f, 0.5f);
    add_box(g->world, C2D_BODY_KIND_STATIC, -20.0f, 5.0f, 0.5f, 5.0f);
    add_box(g->world, C2D_BODY_KIND_STATIC, 20.0f, 5.0f, 0.5f, 5.0f);
    for (int i = 0; i < CRATES; ++i) {
        g->crates[i] = add_box(g->world, C2D_BODY_KIND_DYNAMIC, -6.0f + (float)(i % 10) * 1.1f,
                               0.5f + (float)(i / 10) * 1.05f, 0.5f, 0.5f);
    }
    g->players[0] = add_box(g->world, C2D_BODY_KIND_DYNAMIC, -12.0f, 0.5f, 0.4f, 0.4f);
    g->players[1] = add_box(g->world, C2D_BODY_KIND_DYNAMIC, 12.0f, 0.5f, 0.4f, 0.4f);
}

/* One frame: each player pushes its box left or right, then the world steps. */
static void game_frame(Game *g, const int inputs[2]) {
    for (int p = 0; p < 2; ++p) {
        c2d_Body b;
        c2d_world_get_body(g->world, g->players[p], &b);
        c2d_Vec2 impulse = {(float)inputs[p] * 1.5f, 0.0f};
        c2d_world_apply_linear_impulse(g->world, g->players[p], &impulse, &b.transform.p);
    }
    if (c2d_world_step(g->world, 1.0f / 60.0f, 4) != C2D_STATUS_OK) exit(1);
}

/* FNV-1a over every body's transform and velocities, bit for bit. */
static uint64_t game_hash(const Game *g) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < CRATES + 2; ++i) {
        c2d_BodyId id = i < CRATES ? g->crates[i] : g->players[i - CRATES];
        c2d_Body b;
        c2d_world_get_body(g->world, id, &b);
        float v[7] = {b.transform.p.x, b.transform.p.y, b.transform.q.c, b.transform.q.s,
                      b.linear_velocity.x, b.linear_velocity.y, b.angular_velocity};
        unsigned char bytes[sizeof v];
        memcpy(bytes, v, sizeof v);
        for (size_t k = 0; k < sizeof bytes; ++k) h = (h ^ bytes[k]) * 0x100000001b3ull;
    }
    return h;
}

/* A peer: its game, the inputs it used per frame (its own; the other's as heard or guessed),
 * whether the other's input of a frame is known, and a snapshot before each recent frame. */
typedef struct {
    int me;
    Game game;
    int used[FRAMES][2];
    int heard[FRAMES];
    unsigned char *snapshots[HISTORY];
    size_t sizes[HISTORY];
    size_t capacities[HISTORY];
    int rollbacks;
    int resimulated;
} Peer;

static void save(Peer *p, int frame) {
    int k = frame % HISTORY;
    size_t n = 0;
    c2d_world_snapshot_size(p->game.world, &n);
    if (n > p->capacities[k]) {
        free(p->snapshots[k]);
        p->snapshots[k] = malloc(n);
        if (!p->snapshots[k]) exit(1);
        p->capacities[k] = n;
    }
    if (c2d_world_snapshot(p->game.world, p->snapshots[k], p->capacities[k], &p->sizes[k]) != C2D_STATUS_OK) {
        fprintf(stderr, "snapshot failed\n");
        exit(1);
    }
}

/* Simulates frame `frame` with the peer's own input and its best knowledge of the other's. */
static void simulate(Peer *p, int frame) {
    int other = 1 - p->me;
    p->used[frame][p->me] = input_of(p->me, frame);
    if (!p->heard[frame]) p->used[frame][other] = frame > 0 ? p->used[frame - 1][other] : 0;
    save(p, frame);
    game_frame(&p->game, p->used[frame]);
}

/* The other's input of `frame` arrives while the peer is about to simulate `now`. */
static void hear(Peer *p, int frame, int now) {
    int other = 1 - p->me;
    int real = input_of(other, frame);
    p->heard[frame] = 1;
    if (frame >= now) {
        p->used[frame][other] = real;
        return;
    }
    if (p->used[frame][other] == real) return;
    /* Wrong guess: back to the frame, then forward again with the real input (and new
     * guesses after it). */
    p->used[frame][other] = real;
    if (c2d_world_restore(p->game.world, p->snapshots[frame % HISTORY], p->sizes[frame % HISTORY]) !=
        C2D_STATUS_OK) {
        fprintf(stderr, "restore failed\n");
        exit(1);
    }
    p->rollbacks += 1;
    for (int f = frame; f < now; ++f) {
        simulate(p, f);
        p->resimulated += 1;
    }
}

int main(void) {
    Game reference;
    game_init(&reference);
    for (int f = 0; f < FRAMES; ++f) {
        int inputs[2] = {input_of(0, f), input_of(1, f)};
        game_frame(&reference, inputs);
    }

    static Peer peers[2];
    for (int i = 0; i < 2; ++i) {
        peers[i].me = i;
        game_init(&peers[i].game);
    }
    /* Frame `now`: the input of frame now - DELAY arrives at each peer, then each simulates. */
    for (int now = 0; now <= FRAMES; ++now) {
        for (int i = 0; i < 2; ++i) {
            if (now - DELAY >= 0) hear(&peers[i], now - DELAY, now);
            if (now < FRAMES) simulate(&peers[i], now);
        }
    }
    /* The last inputs arrive after the last frame. */
    for (int f = FRAMES - DELAY + 1; f < FRAMES; ++f) {
        for (int i = 0; i < 2; ++i) hear(&peers[i], f, FRAMES);
    }

    printf("no delay: %016llx\n", (unsigned long long)game_hash(&reference));
    for (int i = 0; i < 2; ++i) {
        printf("peer %d: %016llx\n", i, (unsigned long long)game_hash(&peers[i].game));
    }
    printf("rollbacks %d %d, frames simulated again %d %d\n", peers[0].rollbacks, peers[1].rollbacks,
           peers[0].resimulated, peers[1].resimulated);
    c2d_world_destroy(reference.world);
    for (int i = 0; i < 2; ++i) {
        c2d_world_destroy(peers[i].game.world);
        for (int k = 0; k < HISTORY; ++k) free(peers[i].snapshots[k]);
    }
    return 0;
}
