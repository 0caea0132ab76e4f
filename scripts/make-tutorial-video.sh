#!/usr/bin/env bash
# Renders the connect page's tutorial video (public/terraform/tutorial.webm) and its poster from text, so the
# product ships a local video and nothing is fetched from the internet. Needs ffmpeg and the DejaVu fonts
# (Debian: apt-get install ffmpeg fonts-dejavu-core). Run it again after changing the steps below.
set -euo pipefail
cd "$(dirname "$0")/.."
out=public/terraform
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
bold=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
mkdir -p "$out"

scene() { # start end size fontfile text y
  printf "drawtext=fontfile=%s:text='%s':fontcolor=white:fontsize=%s:x=(w-text_w)/2:y=%s:enable='between(t,%s,%s)'" \
    "$4" "$5" "$3" "$6" "$1" "$2"
}

filters=$(IFS=,; echo "$(scene 0 3 34 "$bold" 'Generate Terraform' '(h/2)-40'),\
$(scene 0 3 22 "$font" 'for your AWS account in three steps' '(h/2)+10'),\
$(scene 3 6 30 "$bold" '1. Connect' '(h/2)-40'),\
$(scene 3 6 22 "$font" 'Enter your AWS account ID and region' '(h/2)+10'),\
$(scene 6 9 30 "$bold" '2. Authorize' '(h/2)-40'),\
$(scene 6 9 22 "$font" 'Create the read-only role with CloudFormation' '(h/2)+10'),\
$(scene 9 12 30 "$bold" '3. Download' '(h/2)-40'),\
$(scene 9 12 22 "$font" 'Unzip, run terraform init and terraform plan' '(h/2)+10')")

ffmpeg -y -loglevel error -f lavfi -i "color=c=0x6E27D5:s=640x360:d=12:r=12" -vf "$filters" \
  -c:v libvpx-vp9 -b:v 60k -pix_fmt yuv420p -an "$out/tutorial.webm"
ffmpeg -y -loglevel error -ss 0.5 -i "$out/tutorial.webm" -frames:v 1 "$out/tutorial-poster.png"
ls -l "$out/tutorial.webm" "$out/tutorial-poster.png"
