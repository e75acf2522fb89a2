# shellcheck shell=bash
# bench/page.sh: sourced by run.sh, instructions.sh and compare.sh.

# make_bench_page FILE SIZE: SIZE bytes of plain, deterministic HTML in FILE (the static scenario's page).
make_bench_page() {
    local file=$1 size=$2 page line i
    local page_tail=$'</body>\n</html>\n'
    page=$'<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Formwright benchmark page</title></head>\n<body>\n'
    for ((i = 1; ${#page} < size; i++)); do
        printf -v line '<p id="p%03d">Paragraph %03d: the quick brown fox jumps over the lazy dog.</p>\n' "$i" "$i"
        page+=$line
    done
    page=${page:0:size-${#page_tail}}$page_tail
    printf '%s' "$page" >"$file"
    [[ $(wc -c <"$file") -eq $size ]]
}

# header_options HEAD_FILE: `-H 'NAME: VALUE'` for each field of a saved response head that the
# ceiling does not send by itself (all but the status line, Date, Content-Length, Content-Type, Connection).
header_options() {
    local line
    while IFS= read -r line; do
        line=${line%$'\r'}
        [[ $line == *:* ]] || continue
        case ${line%%:*} in
        [Dd]ate | [Cc]ontent-[Ll]ength | [Cc]ontent-[Tt]ype | [Cc]onnection) ;;
        *) printf '%s\0' -H "$line" ;;
        esac
    done <"$1"
}
