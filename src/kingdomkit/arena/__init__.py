"""Tournaments between bots: schedules, paired deals, statistics, ratings and charts."""
