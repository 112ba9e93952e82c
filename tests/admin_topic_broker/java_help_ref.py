"""``mqadmin help CMD`` of the Java 5.3.3 tool for the topic, broker and export commands.

Recorded from the real tool; long lines are split in two literals only to fit the line length.
"""

REFERENCE: dict[str, str] = {
    "updateTopic": (
        "usage: mqadmin updateTopic [-a <arg>] -b <arg> | -c <arg>  [-h] [-n <arg>] [-o <"
        "arg>] [-p <arg>] [-r <arg>]\n"
        "       [-s <arg>] -t <arg> [-u <arg>] [-w <arg>]\n"
        " -a,--attributes <arg>       attribute(+a=b,+c=d,-e)\n"
        " -b,--brokerAddr <arg>       create topic to which broker\n"
        " -c,--clusterName <arg>      create topic to which cluster\n"
        " -h,--help                   Print help\n"
        " -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192"
        ".168.0.2:9876'\n"
        " -o,--order <arg>            set topic's order(true|false)\n"
        " -p,--perm <arg>             set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]\n"
        " -r,--readQueueNums <arg>    set read queue nums\n"
        " -s,--hasUnitSub <arg>       has unit sub (true|false)\n"
        " -t,--topic <arg>            topic name\n"
        " -u,--unit <arg>             is unit topic (true|false)\n"
        " -w,--writeQueueNums <arg>   set write queue nums\n"
    ),
    "updateTopicList": (
        "usage: mqadmin updateTopicList -b <arg> | -c <arg>  -f <arg> [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    create topic to which broker\n"
        " -c,--clusterName <arg>   create topic to which cluster\n"
        " -f,--filename <arg>      Path to a file with list of org.apache.rocketmq.common"
        ".TopicConfig in json format\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
    ),
    "deleteTopic": (
        "usage: mqadmin deleteTopic -c <arg> [-h] [-n <arg>] -t <arg>\n"
        " -c,--clusterName <arg>   delete topic from which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "updateTopicPerm": (
        "usage: mqadmin updateTopicPerm [-b <arg>] [-c <arg>] [-h] [-n <arg>] -p <arg> -t <arg>\n"
        " -b,--brokerAddr <arg>    create topic to which broker\n"
        " -c,--clusterName <arg>   create topic to which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
        " -p,--perm <arg>          set topic's permission(2|4|6), intro[2:W; 4:R; 6:RW]\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "topicStatus": (
        "usage: mqadmin topicStatus [-c <arg>] [-h] [-n <arg>] -t <arg>\n"
        " -c,--cluster <arg>       cluster name or lmq parent topic, lmq is used to find "
        "the route.\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "updateOrderConf": (
        "usage: mqadmin updateOrderConf [-h] -m <arg> [-n <arg>] -t <arg> [-v <arg>]\n"
        " -h,--help                Print help\n"
        " -m,--method <arg>        option type [eg. put|get|delete\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
        " -v,--orderConf <arg>     set order conf [eg. brokerName1:num;brokerName2:num]\n"
    ),
    "updateBrokerConfig": (
        "usage: mqadmin updateBrokerConfig [-a <arg>] [-b <arg>] [-c <arg>] [-h] -k <arg>"
        " [-n <arg>] -v <arg>\n"
        " -a,--updateAllBroker <arg>   update all brokers include slave\n"
        " -b,--brokerAddr <arg>        update which broker\n"
        " -c,--clusterName <arg>       update which cluster\n"
        " -h,--help                    Print help\n"
        " -k,--key <arg>               config key\n"
        " -n,--namesrvAddr <arg>       Name server address list, eg: '192.168.0.1:9876;19"
        "2.168.0.2:9876'\n"
        " -v,--value <arg>             config value\n"
    ),
    "brokerStatus": (
        "usage: mqadmin brokerStatus -b <arg> | -c <arg>  [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--clusterName <arg>   which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
    ),
    "cleanExpiredCQ": (
        "usage: mqadmin cleanExpiredCQ [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--cluster <arg>       clustername\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
    ),
    "deleteExpiredCommitLog": (
        "usage: mqadmin deleteExpiredCommitLog [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--cluster <arg>       clustername\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address\n"
    ),
    "cleanUnusedTopic": (
        "usage: mqadmin cleanUnusedTopic [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--cluster <arg>       cluster name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
    ),
    "getBrokerConfig": (
        "usage: mqadmin getBrokerConfig [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    get which broker\n"
        " -c,--clusterName <arg>   get which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
    ),
    "exportMetadata": (
        "usage: mqadmin exportMetadata [-b <arg>] [-c <arg>] [-f <arg>] [-g] [-h] [-n <ar"
        "g>] [-s] [-t]\n"
        " -b,--brokerAddr <arg>    choose a broker to export\n"
        " -c,--clusterName <arg>   choose a cluster to export\n"
        " -f,--filePath <arg>      export metadata.json path | default /tmp/rocketmq/export\n"
        " -g,--subscriptionGroup   only export subscriptionGroup metadata\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
        " -s,--specialTopic        need retryTopic and dlqTopic\n"
        " -t,--topic               only export topic metadata\n"
    ),
    "exportConfigs": (
        "usage: mqadmin exportConfigs -c <arg> [-f <arg>] [-h] [-n <arg>]\n"
        " -c,--clusterName <arg>   choose a cluster to export\n"
        " -f,--filePath <arg>      export configs.json path | default /tmp/rocketmq/export\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
    ),
    "exportMetrics": (
        "usage: mqadmin exportMetrics -c <arg> [-f <arg>] [-h] [-n <arg>]\n"
        " -c,--clusterName <arg>   choose a cluster to export\n"
        " -f,--filePath <arg>      export metrics.json path | default /tmp/rocketmq/export\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.16"
        "8.0.2:9876'\n"
    ),
}
