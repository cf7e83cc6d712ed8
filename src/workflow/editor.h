/*
 * The hunk editor of -p as a child process that never outlives the run:
 * see src/workflow/editor.c.
 */
#ifndef AA_EDITOR_H
#define AA_EDITOR_H

/*
 * From here to aa_editor_guard_end, a signal that ends the run (SIGINT,
 * SIGQUIT, SIGTERM, SIGHUP, SIGPIPE; not those the process ignores)
 * first ends the running editor and removes `file` (the edit file),
 * then ends the run as it would have. A second begin without an end
 * is refused (-1).
 */
int aa_editor_guard_begin(const char *file);
void aa_editor_guard_end(void);

/*
 * Runs `cmd "$@"` through sh -c on `file`, as git runs an editor, in a
 * process group of its own that holds the terminal while it runs, and
 * waits for it. *status: waitpid's. 0 when it ran (whatever its status),
 * -1 when it could not be started. When a guarded signal came, the
 * editor is ended (a forwarded SIGTERM or SIGHUP, SIGKILL after 5 s),
 * the file removed and the signal raised again: the run ends here.
 * When the editor itself dies of SIGINT or SIGQUIT (the terminal's
 * ^C or ^\ go to the editor only), the run ends the same way, as git's.
 */
int aa_editor_run(const char *cmd, const char *file, int *status);

#endif
