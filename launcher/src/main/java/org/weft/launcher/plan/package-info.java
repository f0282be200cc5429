/** What a job is made of: the parsed request ({@link org.weft.launcher.plan.JobPlan}) and each rank's command. */
package org.weft.launcher.plan;
