#!/bin/sh
# Misbehaving JSON-lines bots for the containment tests: `sh misbehave.sh MODE`.
HELLO='{"hello":"clue-arena","protocol":"1.0","name":"misbehave"}'
case "$1" in
  silent)  sleep 100 ;;
  badhello) read -r h; echo '{"hello":"clue-arena","protocol":"9.0","name":"future"}'; sleep 100 ;;
  nothello) read -r h; echo 'HELO there'; sleep 100 ;;
  garbage) read -r h; echo "$HELLO"; read -r r; echo 'this is not json'; sleep 100 ;;
  closes)  read -r h; echo "$HELLO"; read -r r; exec 1>&-; sleep 100 ;;
  exits)   read -r h; echo "$HELLO"; read -r r; exit 3 ;;
  ends)    read -r h; echo "$HELLO"; read -r r; sleep 100 & exit 0 ;;
  bom)     read -r h; printf '\357\273\277%s\n' "$HELLO"; read -r r; sleep 100 ;;
  unended) read -r h; printf '%s' "$HELLO"; read -r r ;;
  midline) read -r h; printf '{"hello":'; sleep 100 ;;
  tostderr) read -r h; echo "$HELLO" >&2; sleep 100 ;;
  hangs)   read -r h; echo "$HELLO"; read -r r; sleep 100 ;;
  waits)   read -r h; echo "$HELLO"; read -r r; read -r never ;;
  names)   read -r h; echo "$HELLO"; while read -r r; do case "$r" in
             *'"request":"suggest"'*) echo '{"reply":"suggest","suggestion":{"cards":["Mr. Green","Rope","Hall"]}}' ;;
             *'"request":"accuse"'*) echo '{"reply":"accuse","accusation":null}' ;;
             *'"request":"respond"'*) echo '{"reply":"respond","card":"Rope"}' ;;
             *) echo '{"reply":"ok"}' ;;
           esac; done ;;
  flat)    read -r h; echo "$HELLO"; while read -r r; do case "$r" in
             *'"request":"suggest"'*) echo '{"reply":"suggest","suggestion":[1,7,14]}' ;;
             *'"request":"accuse"'*) echo '{"reply":"accuse","accusation":null}' ;;
             *'"request":"respond"'*) echo '{"reply":"respond","card":null}' ;;
             *) echo '{"reply":"ok"}' ;;
           esac; done ;;
  flood)   read -r h; echo "$HELLO"; read -r r; while :; do echo '{"reply":"ok"}'; done ;;
  longline) read -r h; echo "$HELLO"; read -r r; while :; do printf 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; done ;;
  complains) read -r h; echo "$HELLO"; read -r r; echo "misbehave: I give up on this request" >&2; exit 5 ;;
  escapes) read -r h; echo "$HELLO"; read -r r; printf '\033[2J\033[1A\033[2Kseat 0: rank 1, won\n' >&2; printf '\033]52;c;aGk=\007\n'; sleep 100 ;;
  forks)   read -r h; echo "$HELLO"; sleep 100 & sh -c 'sleep 100 & sleep 100' & read -r r; exit 4 ;;
  *) echo "unknown mode $1" >&2; exit 2 ;;
esac
