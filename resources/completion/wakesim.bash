# SPDX-License-Identifier: Apache-2.0
# bash completion for wakesim: its commands and subcommands, each one's
# options, and the names it knows (machines, workloads, policies, features,
# hooks), asked of the wakesim being completed, so that they are that
# version's and its plugins'. tests/package/completion_test.sh checks the
# tables below against wakesim's own option tables.

# The subcommands of a command.
_wakesim_subcommands()
{
    case $1 in
        topology) echo "show import check" ;;
        list) echo "topologies workloads policies features hooks" ;;
        policy) echo "new" ;;
        trace) echo "import replay to-workload" ;;
        kernel) echo "run qemu-command" ;;
    esac
}

# The options of a command ("run") or subcommand ("topology show").
_wakesim_options()
{
    case $1 in
        "topology show") echo "--json --cpus --tree --domains" ;;
        "topology import") echo "--sysfs --lscpu --output --name --measure --measure-time" ;;
        run) echo "--scenario --case --topology --workload --policy --seed --features --json --record" \
                  "--trace --trace-limit --time-limit --check" ;;
        compare) echo "--scenario --topology --workload --policies --runs --seed --features --jobs --json --csv" ;;
        bench) echo "--quick --record --repeat --only" ;;
        validate) echo "--case --quick --runs --jobs --json --markdown" ;;
        "policy new") echo "--hook --dir" ;;
        "trace import") echo "--topology --sysfs --lscpu --comm --pid --clock --json" ;;
        "trace replay") echo "--topology --sysfs --lscpu --policies --features --comm --pid --sync-window --record --json" ;;
        "trace to-workload") echo "--topology --sysfs --lscpu --comm --pid --output" ;;
        "kernel run") echo "--topology --workload --kernel --modules --runs --features --accel --keep --json --seed" \
                           "--timeout --trace-buffer" ;;
        "kernel qemu-command") echo "--topology" ;;
        sweep) echo "--json --jobs --shard --plan --emit --shards --out --partition --time --cpus-per-task --image" \
                    "--claim" ;;
        soak) echo "--events --leg-events --topology --workload --policy" ;;
    esac
}

# The first word of each line of `wakesim list WHAT` that names something,
# asked of _wakesim's program (bash's dynamic scope).
_wakesim_names()
{
    "${_wakesim_program[@]}" list "$1" 2>/dev/null | awk '/^[a-zA-Z0-9]/ { print $1 }'
}

# Completes a comma-separated list (--policies a,b,..., --features): the
# words offered replace only the part after the last comma.
_wakesim_complete_list()
{
    local cur=$1 words=$2 head=""
    [[ $cur == *,* ]] && head=${cur%,*},
    compopt -o nospace 2>/dev/null
    local w
    COMPREPLY=()
    for w in $words; do
        [[ $head$w == "$cur"* ]] && COMPREPLY+=("$head$w")
    done
}

_wakesim_files()
{
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_wakesim()
{
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD - 1]}
    # The program being completed, with the leading --plugin options, whose
    # policies and hooks then count.
    local -a _wakesim_program=("${COMP_WORDS[0]}")
    local i=1
    while (( i < COMP_CWORD )) && [[ ${COMP_WORDS[i]} == --plugin ]]; do
        _wakesim_program+=(--plugin "${COMP_WORDS[i + 1]}")
        (( i += 2 ))
    done

    case $prev in
        --plugin) _wakesim_files "$cur"; return ;;
        --topology)
            mapfile -t COMPREPLY < <(compgen -W "$(_wakesim_names topologies)" -- "$cur")
            [[ $cur == */* || $cur == *.json || ${#COMPREPLY[@]} -eq 0 ]] && _wakesim_files "$cur"
            return ;;
        --workload) mapfile -t COMPREPLY < <(compgen -W "$(_wakesim_names workloads)" -- "$cur"); return ;;
        --policy) mapfile -t COMPREPLY < <(compgen -W "$(_wakesim_names policies)" -- "$cur"); return ;;
        --policies) _wakesim_complete_list "$cur" "$(_wakesim_names policies)"; return ;;
        --features)
            local features
            features=$(_wakesim_names features)
            _wakesim_complete_list "$cur" "$features $(printf 'NO_%s ' $features)"
            return ;;
        --hook) mapfile -t COMPREPLY < <(compgen -W "$(_wakesim_names hooks)" -- "$cur"); return ;;
        --scenario | --json | --csv | --record | --trace | --output | --lscpu | --markdown | --sysfs | --dir | \
            --kernel | --modules | --keep | --out)
            _wakesim_files "$cur"; return ;;
    esac

    # The command and its subcommand, if typed yet.
    local command=${COMP_WORDS[i]:-} sub=""
    if (( COMP_CWORD == i )); then
        mapfile -t COMPREPLY < <(compgen -W "topology run compare list policy bench validate trace sweep soak kernel --plugin --help --version" -- "$cur")
        return
    fi
    local subcommands
    subcommands=$(_wakesim_subcommands "$command")
    if [[ -n $subcommands ]]; then
        if (( COMP_CWORD == i + 1 )); then
            mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur")
            return
        fi
        sub=${COMP_WORDS[i + 1]}
    fi
    local path=$command${sub:+ $sub}
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_wakesim_options "$path") --help" -- "$cur")
        return
    fi
    # A machine where a command takes one as its argument.
    case $path in
        "topology show" | "topology check")
            mapfile -t COMPREPLY < <(compgen -W "$(_wakesim_names topologies)" -- "$cur")
            [[ ${#COMPREPLY[@]} -eq 0 ]] && _wakesim_files "$cur"
            ;;
        trace* | sweep) _wakesim_files "$cur" ;;
    esac
}

complete -F _wakesim wakesim
