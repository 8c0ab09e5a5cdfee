#ifndef TPNS_CTERMINAL_H
#define TPNS_CTERMINAL_H

// The part of a full-screen terminal program that must be C: putting the
// terminal back from a signal handler (only async-signal-safe calls), on
// every way out of the process.

/// Saves the terminal settings of `fd`, switches it to raw mode (no echo,
/// no line editing, no signals from keys, no flow control; output
/// processing kept) and writes `enter` (alternate screen, hidden cursor).
/// From then on, tpns_terminal_restore() writes `leave` and puts the saved
/// settings back: at exit (atexit: an exit() from within a command; a
/// command that returns has restored it itself, and ends with _exit), and
/// before a fatal signal (SIGSEGV,
/// SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS) goes on to the handler
/// it had before (the Swift runtime's backtracer, or the default).
/// SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGWINCH write their number, one
/// byte, to `signal_fd` (a non-blocking pipe) for the program's loop.
/// Returns 0, or -1 with errno set (the terminal is left as it was).
int tpns_terminal_enter(int fd, const char *enter, const char *leave, int signal_fd);

/// Puts the terminal back as tpns_terminal_enter found it, once (later
/// calls do nothing). Async-signal-safe.
void tpns_terminal_restore(void);

/// pipe2(O_CLOEXEC | O_NONBLOCK): a pipe to wake a poll(2) loop. Returns 0, or -1 with errno set.
int tpns_terminal_pipe(int descriptors[2]);

/// The terminal's size in cells, or 0 for both when unknown.
void tpns_terminal_size(int fd, int *columns, int *rows);

#endif
