#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# completion_test.sh WAKESIM COMPLETION: the bash completion offers what
# wakesim itself takes. Its commands are those `wakesim --help` names, its
# subcommands those each command's error lists, its options per command
# those the command's parser says are valid ("valid options: ..."); and it
# completes the names wakesim lists (machines, policies, features).
set -u
wakesim=$1
# shellcheck source=/dev/null
. "$2"
failures=0
fail() { printf 'completion_test: %s\n' "$*"; failures=$((failures + 1)); }

# The words the completion offers for the command line "$@", the last word
# being the one under the cursor.
offered() {
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _wakesim
    printf '%s\n' "${COMPREPLY[@]}" | sort
}

# Words of an English list, "show, import or check" -> one a line.
words_of() { sed 's/, / /g; s/ or / /g; s/`//g' | tr ' ' '\n' | sed '/^$/d' | sort; }

commands=$("$wakesim" --help | sed -n '/^commands:/,$p' | awk '/^  [a-z]/ { print $1 }' | sort -u)
[ -n "$commands" ] || fail "wakesim --help names no commands"
for command in $commands; do
    offered "$wakesim" "" | grep -qx "$command" || fail "'$command' is not offered as a command"
    # Given an option it does not know, a command lists its valid options,
    # and a command of subcommands those ("expected show, import or check").
    probe=$("$wakesim" "$command" --no-such-option 2>&1 | head -1)
    paths=$command
    if [[ $probe != *"valid options:"* ]]; then
        subs=$(printf '%s\n' "$probe" | sed 's/.*expected \(what to list: \)\{0,1\}//' | words_of)
        [ "$(offered "$wakesim" "$command" "")" = "$subs" ] ||
            fail "$command: offers subcommands '$(offered "$wakesim" "$command" "" | xargs)', wakesim takes '$(echo $subs)'"
        paths=$(printf "$command %s\n" $subs)
    fi
    while IFS= read -r path; do
        # shellcheck disable=SC2086
        valid=$("$wakesim" $path --no-such-option 2>&1 | sed -n 's/.*valid options: //p')
        [ "$valid" = none ] && valid=""
        expected=$(printf '%s\n' $(echo "$valid" | tr -d ,) --help | sort)
        # shellcheck disable=SC2086
        [ "$(offered "$wakesim" $path --)" = "$expected" ] ||
            fail "$path: offers '$(offered "$wakesim" $path -- | xargs)', wakesim takes '$(echo $expected)'"
    done <<<"$paths"
done

# Values: the names wakesim lists, a list completed after its last comma.
[ "$(offered "$wakesim" run --topology ampere)" = ampere-altra-80 ] || fail "--topology ampere: $(offered "$wakesim" run --topology ampere)"
offered "$wakesim" topology show teach | grep -qx teaching-8 || fail "topology show teach: $(offered "$wakesim" topology show teach)"
offered "$wakesim" compare --policies baseline,sync | grep -qx baseline,sync-waker-v3 ||
    fail "--policies baseline,sync: $(offered "$wakesim" compare --policies baseline,sync)"
offered "$wakesim" run --features NO_WA_ | grep -qx NO_WA_BIAS || fail "--features NO_WA_: $(offered "$wakesim" run --features NO_WA_)"
[ "$(offered "$wakesim" run --workload hackb)" = hackbench ] || fail "--workload hackb: $(offered "$wakesim" run --workload hackb)"

[ "$failures" -eq 0 ]
