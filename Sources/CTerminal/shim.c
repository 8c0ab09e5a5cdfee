#define _GNU_SOURCE
#include "CTerminal.h"

#include <fcntl.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static int terminal_fd = -1;
static struct termios saved;
static char leave_sequence[256];
static size_t leave_length;
static volatile sig_atomic_t entered;
static int notify_fd = -1;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS};
#define FATAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous_fatal[FATAL_COUNT];
static const int notified_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH};
#define NOTIFIED_COUNT (sizeof notified_signals / sizeof notified_signals[0])

static void write_all(int fd, const char *bytes, size_t length) {
  while (length > 0) {
    ssize_t written = write(fd, bytes, length);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    bytes += written;
    length -= (size_t)written;
  }
}

void tpns_terminal_restore(void) {
  if (!entered) return;
  entered = 0;
  int saved_errno = errno;
  write_all(terminal_fd, leave_sequence, leave_length);
  // TCSADRAIN: the leave sequence reaches the terminal before the mode changes.
  tcsetattr(terminal_fd, TCSADRAIN, &saved);
  errno = saved_errno;
}

static void on_fatal(int signal) {
  tpns_terminal_restore();
  for (size_t index = 0; index < FATAL_COUNT; index++) {
    if (fatal_signals[index] == signal) {
      // The signal is blocked while this handler runs: raised now, it reaches
      // the previous handler as this one returns (a fault instead recurs).
      sigaction(signal, &previous_fatal[index], NULL);
      raise(signal);
      return;
    }
  }
}

static void on_notified(int signal) {
  int saved_errno = errno;
  unsigned char byte = (unsigned char)signal;
  if (notify_fd >= 0) {
    ssize_t ignored = write(notify_fd, &byte, 1);
    (void)ignored;
  }
  errno = saved_errno;
}

int tpns_terminal_enter(int fd, const char *enter, const char *leave, int signal_fd) {
  static int registered_atexit;
  struct termios raw;
  if (tcgetattr(fd, &saved) != 0) return -1;
  size_t length = strlen(leave);
  if (length >= sizeof leave_sequence) {
    errno = EINVAL;
    return -1;
  }
  memcpy(leave_sequence, leave, length);
  leave_length = length;
  terminal_fd = fd;
  notify_fd = signal_fd;

  struct sigaction action;
  memset(&action, 0, sizeof action);
  sigemptyset(&action.sa_mask);
  action.sa_handler = on_notified;
  action.sa_flags = SA_RESTART;
  for (size_t index = 0; index < NOTIFIED_COUNT; index++) {
    sigaction(notified_signals[index], &action, NULL);
  }
  action.sa_handler = on_fatal;
  action.sa_flags = SA_ONSTACK;
  for (size_t index = 0; index < FATAL_COUNT; index++) {
    sigaction(fatal_signals[index], &action, &previous_fatal[index]);
  }
  if (!registered_atexit) {
    atexit(tpns_terminal_restore);
    registered_atexit = 1;
  }

  raw = saved;
  raw.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
  raw.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
  raw.c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
  raw.c_cflag |= CS8;
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  entered = 1;
  if (tcsetattr(fd, TCSADRAIN, &raw) != 0) {
    int saved_errno = errno;
    entered = 0;
    errno = saved_errno;
    return -1;
  }
  write_all(fd, enter, strlen(enter));
  return 0;
}

void tpns_terminal_size(int fd, int *columns, int *rows) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0) {
    *columns = size.ws_col;
    *rows = size.ws_row;
  } else {
    *columns = 0;
    *rows = 0;
  }
}

int tpns_terminal_pipe(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC | O_NONBLOCK); }
