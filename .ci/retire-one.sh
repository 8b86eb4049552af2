#!/usr/bin/env bash
# Issue 26: an endpoint is one folder. On a copy of this checkout, retire one plugin chosen at
# random (delete its folder, nothing else) and add a draft with `npm run plugin:new` (nothing
# else); then lint, build (which regenerates the documents that list endpoints) and run the tests
# that read whatever plugins/ holds: the product-wide ones, the documents', the domain's and
# data's, the tools', the kernel's plugin loading and discovery documents, and the draft's own
# test. The rest of the kernel's tests run on fixture plugins and name no endpoint (checked here
# for the retired one: its id, tail and broker id appear nowhere outside its folder), so the
# whole suite need not run twice. The checkout itself is never touched.
#   .ci/retire-one.sh            a plugin at random (its name is printed: rerun with it to reproduce)
#   RETIRE_PLUGIN=<id> .ci/retire-one.sh
# Ends with the count line "N passed, N failed" of the test run; exit status non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

plugins=$(for m in plugins/*/manifest.ts; do basename "$(dirname "$m")"; done)
pick=${RETIRE_PLUGIN:-$(printf '%s\n' $plugins | shuf -n 1)}
[ -f "plugins/$pick/manifest.ts" ] || { echo "no plugin folder plugins/$pick" >&2; exit 2; }
family=${pick%%-*}
product=$(node -e "const p=require('$root/dist/config/products.js').PRODUCTS.find(x=>x.family==='$family');process.stdout.write(p.id+' '+p.priceRangeMicroUsdc.min)")
read -r product_id price <<<"$product"
draft="$family-ci-draft"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tracked files and the new ones not ignored: what a clean clone of this change holds.
git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$work"
ln -s "$root/node_modules" "$work/node_modules"
cd "$work"

echo "--- retiring plugins/$pick, adding the draft $draft ($product_id, $price micro-USDC)"
rm -rf "plugins/$pick"
npm run -s plugin:new -- "$draft" --product "$product_id" --tail "$family/ci-draft/check" --price "$price" ||
  { echo "0 passed, 1 failed"; exit 1; }
npm run -s lint && npm run -s build || { echo "0 passed, 1 failed"; exit 1; }
tail=$(sed -n "s/^ *tail: '\(.*\)',$/\1/p" "$root/plugins/$pick/manifest.ts")
broker_id="$product_id-v1-${pick#*-}"
left=$(grep -rlF -e "$pick" -e "$tail" -e "$broker_id" --include='*.ts' --include='*.js' --include='*.json' --include='*.sh' \
  core domain config tools test bench main.ts plugins .ci docs/*.json 2>/dev/null | grep -v '^docs/glossary.json$' | head -5)
if [ -n "$left" ]; then
  echo "files outside plugins/$pick still name it:" $left >&2
  echo "0 passed, 1 failed"
  exit 1
fi
node_modules/.bin/mocha --no-config --require dist/test/support/setup.js \
  --reporter dist/test/support/count-reporter.js --timeout 20000 --exit \
  'dist/test/products/**/*.test.js' 'dist/test/docs/**/*.test.js' 'dist/test/domain/**/*.test.js' \
  'dist/test/data/**/*.test.js' 'dist/test/tools/**/*.test.js' 'dist/test/core/plugins/**/*.test.js' \
  'dist/test/core/discovery/**/*.test.js' "dist/plugins/$draft/*.test.js"
