/*
 * camelog.c - the camelog program: finds the command in its table and
 * runs it.  `camelog help [command]`, `camelog --help` and
 * `camelog --version` are answered here; each command parses its own
 * options (tools/cmd_<name>.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const struct cli_command commands[] = {
    {"keygen", cmd_keygen, "make a dealer key pair"},
    {"simulate", cmd_simulate, "record games played by seeded bots"},
    {"verify", cmd_verify, "check seals, chain and rules"},
    {"replay", cmd_replay, "tell a game as a narrative"},
    {"step", cmd_step, "step through a game interactively"},
    {"reveal", cmd_reveal, "show who was who and every secret"},
    {"cat", cmd_cat, "print the canonical text of a log"},
    {"pack", cmd_pack, "turn text into a sealed log file"},
    {"export", cmd_export, "write every step of a game as JSON Lines"},
    {"diff", cmd_diff, "find where two logs of a game diverge"},
    {"archive", cmd_archive, "keep many games in SQLite: add, query, stats"},
    {"import", cmd_import, "turn games recorded elsewhere into logs"},
    {"html", cmd_html, "write a game as a self-contained HTML replay"},
    {"host", cmd_host, "record a live game driven by JSON Lines"},
    {"seat", cmd_seat, "a player's checks and signatures in a live game"},
    {"corpus", cmd_corpus, "generate games that exercise every rule id"},
    {"tlog", cmd_tlog, "keep and check a public log of games (tlog-tiles)"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char usage[] = "usage: camelog command [options] [file ...]\n"
                            "       camelog help [command]\n"
                            "       camelog --help\n"
                            "       camelog --version\n";

static const struct cli_command *
find_command(const char *name)
{
    size_t i;

    for (i = 0; i < NCOMMANDS; i++) {
        if (strcmp(commands[i].name, name) == 0) {
            return &commands[i];
        }
    }
    return NULL;
}

static int
print_help(void)
{
    size_t i;

    fputs(usage, stdout);
    fputs("\ncommands:\n", stdout);
    for (i = 0; i < NCOMMANDS; i++) {
        printf("  %-10s %s\n", commands[i].name, commands[i].summary);
    }
    fputs("\n'camelog help COMMAND' or 'camelog COMMAND --help' describes a "
          "command;\nman camelog-COMMAND has the details.\n",
          stdout);
    return cli_finish(CLI_EXIT_OK);
}

static int
help_command(const char *name)
{
    const struct cli_command *c = find_command(name);
    char arg0[16];
    char arg1[] = "--help";
    char *av[3];

    if (!c) {
        return cli_usage_error(NULL, "unknown command '%s'", name);
    }
    snprintf(arg0, sizeof(arg0), "%s", c->name);
    av[0] = arg0;
    av[1] = arg1;
    av[2] = NULL;
    return c->run(2, av);
}

int
main(int argc, char **argv)
{
    const struct cli_command *c;

    if (argc < 2) {
        fputs(usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        return print_help();
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("camelog %s (libreplay %s)\n", RPL_VERSION, rpl_version());
        return cli_finish(CLI_EXIT_OK);
    }
    if (strcmp(argv[1], "help") == 0) {
        if (argc == 2) {
            return print_help();
        }
        if (argc > 3) {
            return cli_usage_error(NULL, "help takes one command");
        }
        return help_command(argv[2]);
    }
    if (argv[1][0] == '-') {
        return cli_usage_error(NULL, "unknown option '%s'", argv[1]);
    }
    c = find_command(argv[1]);
    if (!c) {
        return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
    }
    return c->run(argc - 1, argv + 1);
}
