# SPDX-License-Identifier: Apache-2.0
"""The ChannelShuffle plugin: channel_shuffle.plugin."""
