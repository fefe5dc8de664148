#!/bin/sh
# family: reads (secrets in the environment)
env
cat /proc/self/environ | tr '\0' '\n'
exit 0
