# shellcheck shell=bash
# bench/page.sh: sourced by run.sh and instructions.sh.

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
