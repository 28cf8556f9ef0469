#!/usr/bin/env bash
# Regenerates the SPEC §14 vectors here (and the testdata/ corpus) from the producer and the
# mutation classes of `produce mutate`; each rejected vector is kept only if the verifier's first
# rule id is the one listed. Review the diff before committing: vectors are meant to stay stable.
exec "$(dirname "${BASH_SOURCE[0]}")/../../scripts/audit" --write-corpus
