/*
 * Who holds a lock or a journal: a process id and the host it runs on.
 * A record of ours is stale only when it names this host and a process
 * that is gone; a record from another host is never judged
 * (Documentation/safety.md, "The index lock": no window without a record).
 */
#ifndef AA_OWNER_H
#define AA_OWNER_H

/* This host's name as the records write it (no blanks); "" if unknown. */
const char *aa_owner_host(void);
/*
 * 1 when the process `pid` on `host` is gone (this host, no such
 * process; our own pid counts as gone: it is a dead run's we reuse),
 * 0 when it may be alive or runs elsewhere.
 */
int aa_owner_gone(long pid, const char *host);

#endif
