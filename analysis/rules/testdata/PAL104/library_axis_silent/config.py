EXPERT_AXIS = "expert"
