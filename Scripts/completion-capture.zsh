#!/usr/bin/env zsh
# Prints the matches zsh's completion system offers for a command line, one a line:
# an interactive zsh on a pseudo-terminal (zpty) whose compadd prints each
# match, sent the line and a Tab. Used by Scripts/completion-test.sh.
# Usage: zsh -f Scripts/completion-capture.zsh FPATH-DIR LINE
zmodload zsh/zpty
zpty shell zsh -f -i
zpty -w shell 'PROMPT= RPROMPT= PS2=; unsetopt zle_bracketed_paste 2>/dev/null'
zpty -w shell "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w shell 'compadd() { local -a found; builtin compadd -O found "$@"; local m; for m in $found; do print -r -- "MATCH:$m"; done; builtin compadd "$@"; }'
zpty -w shell 'comppostfuncs=(exit)'
zpty -w shell 'bindkey "^I" complete-word'
zpty -w -n shell "$2"$'\t'
local output line
# comppostfuncs ends the shell once the matches are out: read to its end.
while zpty -r shell line; do output+=$line; done
print -r -- "$output" | tr -d '\r' | grep -ao 'MATCH:[^[:cntrl:]]*' | sed 's/^MATCH://' | grep -v '^\$m"'
