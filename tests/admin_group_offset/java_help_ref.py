"""The Java 5.3.3 ``mqadmin help CMD`` output of the group, consumer, offset and stats commands
(recorded from the real tool)."""

REFERENCE: dict[str, str] = {
    "updateSubGroup": (
        "usage: mqadmin updateSubGroup [-a <arg>] [--attributes <arg>] [-b <arg>] [-c <arg>] [-d <a"
        "rg>] -g <arg> [-h]\n"
        "       [-i <arg>] [-m <arg>] [-n <arg>] [-o <arg>] [-p <arg>] [-q <arg>] [-r <arg>] [-s <a"
        "rg>] [-w <arg>]\n"
        " -a,--notifyConsumerIdsChanged <arg>       notify consumerId changed\n"
        "    --attributes <arg>                     attribute(+a=b,+c=d,-e)\n"
        " -b,--brokerAddr <arg>                     create subscription group to which broker\n"
        " -c,--clusterName <arg>                    create subscription group to which cluster\n"
        " -d,--consumeBroadcastEnable <arg>         broadcast\n"
        " -g,--groupName <arg>                      consumer group name\n"
        " -h,--help                                 Print help\n"
        " -i,--brokerId <arg>                       consumer from which broker id\n"
        " -m,--consumeFromMinEnable <arg>           from min offset\n"
        " -n,--namesrvAddr <arg>                    Name server address list, eg: '192.168.0.1:9876"
        ";192.168.0.2:9876'\n"
        " -o,--consumeMessageOrderly <arg>          consume message orderly\n"
        " -p,--groupRetryPolicy <arg>               the json string of retry policy ( exp:\n"
        '                                           {"type":"EXPONENTIAL","exponentialRetryPolicy":'
        '{"initial":5000,"max\n'
        '                                           ":7200000,"multiplier":2}}\n'
        '                                           {"type":"CUSTOMIZED","customizedRetryPolicy":{"'
        'next":[1000,5000,100\n'
        "                                           00]}} )\n"
        " -q,--retryQueueNums <arg>                 retry queue nums\n"
        " -r,--retryMaxTimes <arg>                  retry max times\n"
        " -s,--consumeEnable <arg>                  consume enable\n"
        " -w,--whichBrokerWhenConsumeSlowly <arg>   which broker id when consume slowly\n"
    ),
    "updateSubGroupList": (
        "usage: mqadmin updateSubGroupList -b <arg> | -c <arg>  -f <arg> [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    create groups to which broker\n"
        " -c,--clusterName <arg>   create groups to which cluster\n"
        " -f,--filename <arg>      Path to a file with a list of\n"
        "                          org.apache.rocketmq.remoting.protocol.subscription.SubscriptionG"
        "roupConfig in json\n"
        "                          format\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
    ),
    "deleteSubGroup": (
        "usage: mqadmin deleteSubGroup [-b <arg>] [-c <arg>] -g <arg> [-h] [-n <arg>] [-r <arg>]\n"
        " -b,--brokerAddr <arg>     delete subscription group from which broker\n"
        " -c,--clusterName <arg>    delete subscription group from which cluster\n"
        " -g,--groupName <arg>      subscription group name\n"
        " -h,--help                 Print help\n"
        " -n,--namesrvAddr <arg>    Name server address list, eg: '192.168.0.1:9876;192.168.0.2:987"
        "6'\n"
        " -r,--removeOffset <arg>   remove offset\n"
    ),
    "getConsumerConfig": (
        "usage: mqadmin getConsumerConfig -g <arg> [-h] [-n <arg>]\n"
        " -g,--groupName <arg>     subscription group name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
    ),
    "consumerProgress": (
        "usage: mqadmin consumerProgress [-c <arg>] [-g <arg>] [-h] [-n <arg>] [-s <arg>] [-t <arg>"
        "]\n"
        " -c,--cluster <arg>        Cluster name or lmq parent topic, lmq is used to find the route"
        ".\n"
        " -g,--groupName <arg>      consumer group name\n"
        " -h,--help                 Print help\n"
        " -n,--namesrvAddr <arg>    Name server address list, eg: '192.168.0.1:9876;192.168.0.2:987"
        "6'\n"
        " -s,--showClientIP <arg>   Show Client IP per Queue\n"
        " -t,--topicName <arg>      topic name\n"
    ),
    "consumerStatus": (
        "usage: mqadmin consumerStatus [-b <arg>] -g <arg> [-h] [-i <arg>] [-n <arg>] [-s]\n"
        " -b,--brokerAddr <arg>      broker address\n"
        " -g,--consumerGroup <arg>   consumer group name\n"
        " -h,--help                  Print help\n"
        " -i,--clientId <arg>        The consumer's client id\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:98"
        "76'\n"
        " -s,--jstack                Run jstack command in the consumer progress\n"
    ),
    "consumerConnection": (
        "usage: mqadmin consumerConnection [-b <arg>] -g <arg> [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>      broker address\n"
        " -g,--consumerGroup <arg>   consumer group name\n"
        " -h,--help                  Print help\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:98"
        "76'\n"
    ),
    "producerConnection": (
        "usage: mqadmin producerConnection -g <arg> [-h] [-n <arg>] -t <arg>\n"
        " -g,--producerGroup <arg>   producer group name\n"
        " -h,--help                  Print help\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:98"
        "76'\n"
        " -t,--topic <arg>           topic name\n"
    ),
    "brokerConsumeStats": (
        "usage: mqadmin brokerConsumeStats -b <arg> [-h] [-l <arg>] [-n <arg>] [-o <arg>] [-t <arg>"
        "]\n"
        " -b,--brokerAddr <arg>      Broker address\n"
        " -h,--help                  Print help\n"
        " -l,--level <arg>           threshold of print diff\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:98"
        "76'\n"
        " -o,--order <arg>           order topic\n"
        " -t,--timeoutMillis <arg>   request timeout Millis\n"
    ),
    "statsAll": (
        "usage: mqadmin statsAll [-a] [-h] [-n <arg>] [-t <arg>]\n"
        " -a,--activeTopic         print active topic only\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
        " -t,--topic <arg>         print select topic only\n"
    ),
    "producer": (
        "usage: mqadmin producer -b <arg> [-h] [-n <arg>]\n"
        " -b,--broker <arg>        broker address\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
    ),
    "resetOffsetByTime": (
        "usage: mqadmin resetOffsetByTime [-b <arg>] [-c <arg>] [-f <arg>] -g <arg> [-h] [-n <arg>]"
        " [-o <arg>] [-q\n"
        "       <arg>] -s <arg> -t <arg>\n"
        " -b,--broker <arg>        broker addr\n"
        " -c,--cluster <arg>       Cluster name or lmq parent topic, lmq is used to find the route."
        "\n"
        " -f,--force <arg>         set the force rollback by timestamp switch[true|false]. Deprecat"
        "ed.\n"
        " -g,--group <arg>         set the consumer group\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
        " -o,--offset <arg>        Expect queue offset, not support old version broker\n"
        " -q,--queue <arg>         queue id\n"
        " -s,--timestamp <arg>     set the timestamp[now|currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]"
        "\n"
        " -t,--topic <arg>         set the topic\n"
    ),
    "skipAccumulatedMessage": (
        "usage: mqadmin skipAccumulatedMessage [-c <arg>] [-f <arg>] -g <arg> [-h] [-n <arg>] -t <a"
        "rg>\n"
        " -c,--cluster <arg>       Cluster name or lmq parent topic, lmq is used to find the route."
        "\n"
        " -f,--force <arg>         set the force rollback by timestamp switch[true|false]\n"
        " -g,--group <arg>         set the consumer group\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
        " -t,--topic <arg>         set the topic\n"
    ),
    "cloneGroupOffset": (
        "usage: mqadmin cloneGroupOffset -d <arg> [-h] [-n <arg>] [-o <arg>] -s <arg> -t <arg>\n"
        " -d,--destGroup <arg>     set destination consumer group\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
        " -o,--offline <arg>       the group or the topic is offline\n"
        " -s,--srcGroup <arg>      set source consumer group\n"
        " -t,--topic <arg>         set the topic\n"
    ),
    "queryCq": (
        "usage: mqadmin queryCq [-b <arg>] [-c <arg>] [-g <arg>] [-h] -i <arg> [-n <arg>] -q <arg> "
        "-t <arg>\n"
        " -b,--broker <arg>        broker addr.\n"
        " -c,--count <arg>         how many.\n"
        " -g,--consumer <arg>      consumer group.\n"
        " -h,--help                Print help\n"
        " -i,--index <arg>         start queue index.\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876"
        "'\n"
        " -q,--queue <arg>         queue num, ie. 1\n"
        " -t,--topic <arg>         topic name\n"
    ),
}
